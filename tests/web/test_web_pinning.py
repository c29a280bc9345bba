"""The fetcher connects to the address the guard checked, never to a second lookup's answer (DNS rebinding)."""

from __future__ import annotations

import socket
import ssl
import subprocess
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest

from scrapesmith.web.fetch import HttpFetcher
from scrapesmith.web.page import FetchError
from scrapesmith.web.transport import PinnedBackend, make_transport

PUBLIC = "93.184.216.34"  # a public address: the guard lets it pass; nothing here answers on the test port


class Rebinder:
    """Answers a public address first and the loopback server's address on every later lookup."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, int]] = []

    def __call__(self, host: str, port: int) -> list[str]:
        self.calls.append((host, port))
        return [PUBLIC] if len(self.calls) == 1 else ["127.0.0.1"]


@pytest.fixture()
def rebinding_dns(monkeypatch):
    """The system resolver answers ``rebind.test`` through a :class:`Rebinder` (other names as usual)."""
    rebinder = Rebinder()
    real = socket.getaddrinfo

    def getaddrinfo(host, port, *args, **kwargs):
        if host != "rebind.test":
            return real(host, port, *args, **kwargs)
        address = rebinder(host, int(port))[0]
        return [(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP, "", (address, int(port)))]

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    return rebinder


def test_a_name_that_rebinds_to_loopback_never_reaches_the_loopback_server(site, rebinding_dns):
    url = f"http://rebind.test:{site.server_address[1]}/page/secret"
    with HttpFetcher(allow_hosts=[], respect_robots=False, delay=0, timeout=1.0, retries=0) as fetcher, pytest.raises(FetchError):
        fetcher.fetch(url)
    assert rebinding_dns.calls == [("rebind.test", site.server_address[1])]  # one lookup: the checked one
    assert site.state.log == []


def test_a_custom_resolver_is_asked_once_per_hop(site):
    resolver = Rebinder()
    url = f"http://rebind.test:{site.server_address[1]}/page/secret"
    with HttpFetcher(allow_hosts=[], resolver=resolver, respect_robots=False, delay=0, timeout=1.0, retries=0) as fetcher, pytest.raises(FetchError):
        fetcher.fetch(url)
    assert len(resolver.calls) == 1 and site.state.log == []


def test_each_redirect_hop_is_pinned_to_its_own_checked_address(site, rebinding_dns):
    bounce = site.url(f"/redirect?to=http://rebind.test:{site.server_address[1]}/page/secret")
    with HttpFetcher(allow_hosts=[site.host_port], respect_robots=False, delay=0, timeout=1.0, retries=0) as fetcher, pytest.raises(FetchError):
        fetcher.fetch(bounce)
    assert [entry.path for entry in site.state.log] == [bounce.removeprefix(site.base)]
    assert len(rebinding_dns.calls) == 1


def test_pinned_connections_keep_the_host_name_in_the_request(site):
    backend = PinnedBackend()
    url = f"http://pinned.test:{site.server_address[1]}/page/x"
    backend.pin(url, site.server_address[1], ["127.0.0.1"])
    with httpx.Client(transport=make_transport(backend, httpx.Limits(), via_proxy=False), trust_env=False) as client:
        response = client.get(url)
        assert response.status_code == 200 and "page /page/x" in response.text
        assert response.request.headers["host"] == f"pinned.test:{site.server_address[1]}"
        with pytest.raises(httpx.ConnectError, match="not checked"):
            client.get(f"http://unpinned.test:{site.server_address[1]}/page/x")


def test_https_to_a_pinned_address_keeps_the_server_name_for_sni_and_the_certificate(tmp_path):
    """The certificate names only ``pinned.test``: it verifies because TLS uses the name, not the address."""
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(cert),
                    "-days", "1", "-subj", "/CN=pinned.test", "-addext", "subjectAltName=DNS:pinned.test"],
                   check=True, capture_output=True)
    seen_names: list[str | None] = []
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    context.sni_callback = lambda sock, name, ctx: seen_names.append(name)
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Hello)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    try:
        url = f"https://pinned.test:{server.server_address[1]}/"
        backend = PinnedBackend()
        backend.pin(url, server.server_address[1], ["127.0.0.1"])
        trust = ssl.create_default_context(cafile=str(cert))
        transport = make_transport(backend, httpx.Limits(), via_proxy=False, verify=trust)
        with httpx.Client(transport=transport, trust_env=False) as client:
            response = client.get(url)
        assert response.status_code == 200 and response.text == "hello pinned.test"
        assert seen_names == ["pinned.test"]
    finally:
        server.shutdown()
        server.server_close()


class _Hello(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = f"hello {self.headers['Host'].split(':')[0]}".encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        return
