print("photokiosk")
