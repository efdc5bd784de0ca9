print("mypass: not yet implemented")
