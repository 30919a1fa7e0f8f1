print("orgsocial: CLI not built yet")
