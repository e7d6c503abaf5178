"""The command line: ``cli.py`` is the group and its exit codes, and each command is a module
of its own (content/reference/cli.md)."""
