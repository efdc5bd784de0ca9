#!/usr/bin/env python3
"""Writes keepass-passkeys.xml: a KeePass 2.x XML document with three passkey entries in
KeePassXC's layout, from the known-answer keys in this folder. `kporacle from-xml` (KeePass 2.x's
own library) then turns it into keepass-passkeys.kdbx (password "passkey")."""
import html, os
here = os.path.dirname(os.path.abspath(__file__))
def read(name): return open(os.path.join(here, "..", name)).read()
def field(key, value, protected=False):
    attr = ' ProtectInMemory="True"' if protected else ""
    return f"<String><Key>{key}</Key><Value{attr}>{html.escape(value)}</Value></String>"
def entry(uuid, title, fields, tags="Passkey"):
    body = "".join(field(*f) for f in fields)
    return (f"<Entry><UUID>{uuid}</UUID><Tags>{tags}</Tags>" + field("Title", title) + body +
            "<Times><CreationTime>2026-12-01T12:00:00Z</CreationTime><LastModificationTime>2026-12-01T12:00:00Z</LastModificationTime>"
            "<LastAccessTime>2026-12-01T12:00:00Z</LastAccessTime><ExpiryTime>2026-12-01T12:00:00Z</ExpiryTime><Expires>False</Expires>"
            "<UsageCount>0</UsageCount><LocationChanged>2026-12-01T12:00:00Z</LocationChanged></Times></Entry>")
es256 = entry("AAAAAAAAAAAAAAAAAAAAAQ==", "example.com (Passkey)", [
    ("UserName", "alice"), ("URL", "https://example.com"),
    ("KPEX_PASSKEY_USERNAME", "alice"),
    ("KPEX_PASSKEY_CREDENTIAL_ID", "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8", True),
    ("KPEX_PASSKEY_PRIVATE_KEY_PEM", read("p256_rfc6979_pkcs8.pem"), True),
    ("KPEX_PASSKEY_RELYING_PARTY", "example.com"),
    ("KPEX_PASSKEY_USER_HANDLE", "dXNlci1hbGljZQ", True),
    ("KPEX_PASSKEY_FLAG_BE", "1"), ("KPEX_PASSKEY_FLAG_BS", "0")])
eddsa = entry("AAAAAAAAAAAAAAAAAAAAAg==", "webauthn.io (Passkey)", [
    ("UserName", "bob"), ("URL", "https://webauthn.io"),
    ("KPEX_PASSKEY_USERNAME", "bob"),
    ("KPEX_PASSKEY_CREDENTIAL_ID", "_-_-_-_-", True),
    ("KPEX_PASSKEY_PRIVATE_KEY_PEM", read("ed25519_rfc8032_test1_pkcs8.pem"), True),
    ("KPEX_PASSKEY_RELYING_PARTY", "webauthn.io"),
    ("KPEX_PASSKEY_USER_HANDLE", "Ym9i", True)])
legacy = entry("AAAAAAAAAAAAAAAAAAAAAw==", "Strongbox style", [
    ("KPXC_PASSKEY_USERNAME", "carol"), ("KPEX_PASSKEY_USERNAME", "ignored"),
    ("KPEX_PASSKEY_GENERATED_USER_ID", "Y2Fyb2wtY3JlZA", True),
    ("KPEX_PASSKEY_CREDENTIAL_ID", "aWdub3JlZA", True),
    ("KPEX_PASSKEY_PRIVATE_KEY_PEM", read("p256_rfc6979_sec1.pem"), True),
    ("KPEX_PASSKEY_RELYING_PARTY", "example.com"),
    ("KPEX_PASSKEY_FLAG_BE", "0"), ("KPEX_PASSKEY_FLAG_BS", "0")])
doc = ('<?xml version="1.0" encoding="utf-8" standalone="yes"?>\n<KeePassFile><Meta><Generator>make_keepass_passkeys.py</Generator>'
       '<DatabaseName>Passkeys</DatabaseName></Meta><Root><Group><UUID>AAAAAAAAAAAAAAAAAAAAAA==</UUID><Name>Passkeys</Name>'
       + es256 + eddsa + legacy + '</Group></Root></KeePassFile>\n')
open(os.path.join(here, "..", "keepass-passkeys.xml"), "w").write(doc)
