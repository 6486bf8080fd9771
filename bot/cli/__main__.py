import sys

from bot.cli.commands import main

sys.exit(main())
