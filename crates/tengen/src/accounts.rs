//! `tengen accounts`: the operator's work on players' accounts (no e-mail: a forgotten
//! password is reset here).

use anyhow::{Context, Result};
use clap::{Args, Subcommand};

/// Options of `tengen accounts`.
#[derive(Args)]
pub struct AccountsArgs {
    /// The server's database (as `tengen serve --db`).
    #[arg(long, default_value = "sqlite://tengen.db")]
    db: String,
    #[command(subcommand)]
    action: Action,
}

#[derive(Subcommand)]
enum Action {
    /// Sets a one-time password for NAME and prints it (hand it to the player, who is asked
    /// to change it); every session of the account ends.
    ResetPassword {
        /// The account's name (without regard to case).
        name: String,
    },
}

/// Runs one action.
pub fn run(args: &AccountsArgs) -> Result<()> {
    let runtime =
        tokio::runtime::Builder::new_current_thread().enable_all().build().context("starting the async runtime")?;
    runtime.block_on(async {
        let store =
            tengen_server::Store::open(&args.db).await.with_context(|| format!("opening the database {}", args.db))?;
        let app = tengen_server::AppState::new(store, tengen_server::Settings::default());
        match &args.action {
            Action::ResetPassword { name } => {
                let password = app.reset_password(name).await.map_err(|e| anyhow::anyhow!("{}", e.detail))?;
                println!("one-time password for {name}: {password}");
            }
        }
        Ok(())
    })
}
