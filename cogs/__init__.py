"""Discord adapters: one cog per game family, thin translations to the bot's services."""
