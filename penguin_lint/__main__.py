from penguin_lint.cli import main

main()
