print("tock")
