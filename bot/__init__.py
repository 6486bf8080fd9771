"""What every front end needs: the CLI, the console game and, later, services and storage."""
