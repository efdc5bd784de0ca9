// MyPassCrypto: see the module's feature folders.
