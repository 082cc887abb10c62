"""The `fruit-rage` command line: a thin module per subcommand over a library function."""
