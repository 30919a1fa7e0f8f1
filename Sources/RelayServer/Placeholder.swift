// RelayServer: module placeholder, replaced by its first real file.
