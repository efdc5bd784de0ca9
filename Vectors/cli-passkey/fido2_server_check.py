import sys, json, subprocess, hashlib, base64
from fido2.server import Fido2Server
from fido2.webauthn import (PublicKeyCredentialRpEntity, PublicKeyCredentialUserEntity, AttestationObject,
    CollectedClientData, RegistrationResponse, AuthenticatorAttestationResponse, AuthenticationResponse,
    AuthenticatorAssertionResponse, AuthenticatorData, UserVerificationRequirement)
from fido2.utils import websafe_decode
mypass, vault, entry, password, rp = sys.argv[1:6]
reg = json.load(sys.stdin)
server = Fido2Server(PublicKeyCredentialRpEntity(id=rp, name="Test RP"), attestation="none")
origin = "https://" + rp
options, state = server.register_begin(
    PublicKeyCredentialUserEntity(id=websafe_decode(reg["userHandle"]), name="alice", display_name="alice"),
    user_verification=UserVerificationRequirement.REQUIRED)
client_data = CollectedClientData.create(type=CollectedClientData.TYPE.CREATE, challenge=options.public_key.challenge, origin=origin)
cred_id = websafe_decode(reg["credentialId"])
response = RegistrationResponse(raw_id=cred_id, response=AuthenticatorAttestationResponse(
    client_data=client_data, attestation_object=AttestationObject(websafe_decode(reg["attestationObject"]))))
auth_data = server.register_complete(state, response)
credential = auth_data.credential_data
print("registered", credential.credential_id == cred_id)
for attempt in range(2):
    options, state = server.authenticate_begin([credential], user_verification=UserVerificationRequirement.REQUIRED)
    client_data = CollectedClientData.create(type=CollectedClientData.TYPE.GET, challenge=options.public_key.challenge, origin=origin)
    out = subprocess.run([mypass, "passkey", "assert", vault, entry, "--client-data-hash", client_data.hash.hex(), "--rp", rp],
                         input=(password + "\n").encode(), capture_output=True, check=True)
    a = json.loads(out.stdout)
    result = server.authenticate_complete(state, [credential], AuthenticationResponse(raw_id=websafe_decode(a["credentialId"]),
        response=AuthenticatorAssertionResponse(client_data=client_data,
            authenticator_data=AuthenticatorData(websafe_decode(a["authenticatorData"])),
            signature=websafe_decode(a["signature"]), user_handle=websafe_decode(a["userHandle"]))))
    print("authenticated", result.credential_id == cred_id)
    # A tampered signature must be refused.
    bad = bytearray(websafe_decode(a["signature"])); bad[-1] ^= 1
    try:
        server.authenticate_complete(state, [credential], AuthenticationResponse(raw_id=cred_id,
            response=AuthenticatorAssertionResponse(client_data=client_data,
                authenticator_data=AuthenticatorData(websafe_decode(a["authenticatorData"])),
                signature=bytes(bad), user_handle=websafe_decode(a["userHandle"]))))
        print("tampered accepted")
    except Exception as e:
        print("tampered refused")
