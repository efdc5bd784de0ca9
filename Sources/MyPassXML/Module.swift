// MyPassXML: see the module's feature folders.
