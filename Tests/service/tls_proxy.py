"""A TLS-terminating proxy on loopback in front of `shop serve` (as a reverse proxy such as Caddy
or nginx would be), with a certificate for 127.0.0.1 signed by an authority made for the test:
`authority_pem` is what a client must trust to reach it."""

import asyncio
import datetime
import ipaddress
import ssl
import tempfile
import threading

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID


def _certificate(subject, issuer, public_key, signing_key, is_authority):
    now = datetime.datetime.now(datetime.timezone.utc)
    builder = (x509.CertificateBuilder().subject_name(subject).issuer_name(issuer).public_key(public_key)
               .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(minutes=5))
               .not_valid_after(now + datetime.timedelta(days=1))
               .add_extension(x509.BasicConstraints(ca=is_authority, path_length=None), critical=True))
    if not is_authority:
        builder = builder.add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
    return builder.sign(signing_key, hashes.SHA256())


class TLSProxy:
    def __init__(self, upstream_host, upstream_port):
        self.upstream = (upstream_host, upstream_port)
        self._folder = tempfile.TemporaryDirectory(prefix="shop-tls-")
        authority_key = ec.generate_private_key(ec.SECP256R1())
        authority_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "shop test authority")])
        authority = _certificate(authority_name, authority_name, authority_key.public_key(), authority_key, True)
        server_key = ec.generate_private_key(ec.SECP256R1())
        server = _certificate(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")]), authority_name,
                              server_key.public_key(), authority_key, False)
        self.authority_pem = f"{self._folder.name}/authority.pem"
        chain, key = f"{self._folder.name}/server.pem", f"{self._folder.name}/server.key"
        with open(self.authority_pem, "wb") as file:
            file.write(authority.public_bytes(serialization.Encoding.PEM))
        with open(chain, "wb") as file:
            file.write(server.public_bytes(serialization.Encoding.PEM))
        with open(key, "wb") as file:
            file.write(server_key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                                serialization.NoEncryption()))
        self._context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        self._context.load_cert_chain(chain, key)
        self._loop = asyncio.new_event_loop()
        self._started = threading.Event()
        threading.Thread(target=self._run, daemon=True).start()
        self._started.wait(10)
        self.url = f"https://127.0.0.1:{self.port}"

    def _run(self):
        asyncio.set_event_loop(self._loop)
        self._server = self._loop.run_until_complete(asyncio.start_server(self._serve, "127.0.0.1", 0, ssl=self._context))
        self.port = self._server.sockets[0].getsockname()[1]
        self._started.set()
        self._loop.run_forever()

    async def _serve(self, client_reader, client_writer):
        try:
            server_reader, server_writer = await asyncio.open_connection(*self.upstream)
        except OSError:
            client_writer.close()
            return

        async def pipe(reader, writer):
            try:
                while data := await reader.read(65536):
                    writer.write(data)
                    await writer.drain()
            except (ConnectionError, ssl.SSLError):
                pass
            finally:
                writer.close()
        await asyncio.gather(pipe(client_reader, server_writer), pipe(server_reader, client_writer))

    def close(self):
        self._loop.call_soon_threadsafe(self._server.close)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._folder.cleanup()
