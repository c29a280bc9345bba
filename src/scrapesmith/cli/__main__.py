from scrapesmith.cli import main

main()
