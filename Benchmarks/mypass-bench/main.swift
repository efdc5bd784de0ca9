print("mypass-bench: not yet implemented")
