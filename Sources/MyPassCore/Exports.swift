// `import MyPassCore` alone gives an app everything it needs: the secret types of MyPassBytes
// (`SecureBytes`, `ProtectedString`) and the KDBX model and keys of MyPassKDBX (`Vault`, `Entry`,
// `Group`, `CompositeKey`, `KDFParameters`, `KDBXError` ...). The primitives (MyPassCrypto) are not
// re-exported: an app that wants them imports MyPassCrypto itself.
@_exported import MyPassBytes
@_exported import MyPassKDBX
