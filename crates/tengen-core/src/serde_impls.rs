//! With the `serde` feature: colours, points and moves as the strings GTP writes — `"black"`,
//! `"D4"`, `"pass"` — read back case-insensitively (`"B"`, `"d4"`, `"PASS"`).

use std::fmt::Display;
use std::str::FromStr;

use serde::de::{Deserializer, Error};
use serde::{Deserialize, Serialize, Serializer};

use crate::{Color, Move, Point};

fn parse<'de, T: FromStr, D: Deserializer<'de>>(d: D, what: &str) -> Result<T, D::Error>
where
    T::Err: Display,
{
    let s = String::deserialize(d)?;
    s.parse().map_err(|e| D::Error::custom(format!("invalid {what} {s:?}: {e}")))
}

macro_rules! as_string {
    ($t:ty, $what:literal) => {
        impl Serialize for $t {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_str(self)
            }
        }

        impl<'de> Deserialize<'de> for $t {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<$t, D::Error> {
                parse(d, $what)
            }
        }
    };
}

as_string!(Color, "colour");
as_string!(Point, "vertex");
as_string!(Move, "move");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_both_ways() {
        let m: Vec<Move> = serde_json::from_str(r#"["d4", "PASS", "T19"]"#).unwrap();
        assert_eq!(serde_json::to_string(&m).unwrap(), r#"["D4","pass","T19"]"#);
        let c: Color = serde_json::from_str(r#""B""#).unwrap();
        assert_eq!(serde_json::to_string(&c).unwrap(), r#""black""#);
        let e = serde_json::from_str::<Point>(r#""I5""#).unwrap_err().to_string();
        assert!(e.contains("invalid vertex \"I5\""), "{e}");
        assert!(serde_json::from_str::<Color>("3").is_err());
    }
}
