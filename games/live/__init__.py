"""The websocket side: consumers and routing, the broadcast of each new version's boards
per viewpoint and language, presence pushes and socket limits."""
