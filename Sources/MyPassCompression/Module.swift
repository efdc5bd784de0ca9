// MyPassCompression: see the module's feature folders.
