// MyPassCore: see the module's feature folders.
