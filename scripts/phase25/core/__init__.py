"""What a snippet, a record and a layout are: the data every other folder reads. Standard library only."""
