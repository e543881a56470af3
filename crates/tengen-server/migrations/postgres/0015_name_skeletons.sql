-- Each account's name under UTS #39's confusable skeleton: two accounts' names must differ
-- there too (a Cyrillic о for a Latin o is the name taken). Filled for older accounts when the
-- server opens the database; two older names that look alike keep theirs (NULL).
ALTER TABLE accounts ADD COLUMN name_skeleton TEXT;
CREATE UNIQUE INDEX accounts_name_skeleton ON accounts (name_skeleton);
