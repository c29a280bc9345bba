"""The HTTP client's safety rules hold in the browser: private addresses, redirects, page-triggered
navigations, subresources, robots.txt and downloads. Nothing may reach a non-loopback address: every
private-address case here must be refused before a connection is attempted (10.0.0.1 is never dialled).
"""

from __future__ import annotations

import socket
import time

import pytest
from browser_helpers import FAST, TRAP_PAGES, local_policy

from scrapesmith.web.browser import BrowserFetcher, BrowserFetchError, BrowserRuntime, BrowserSession
from scrapesmith.web.page import BlockedAddress, RobotsDisallowed

pytestmark = pytest.mark.browser


def test_loopback_page_is_refused_when_not_allowed(demo_web):
    before = len(demo_web.request_log)
    guarded = BrowserSession(options=FAST, policy=local_policy(allow_hosts=[]))
    with guarded, pytest.raises(BlockedAddress, match="127.0.0.1"):
        guarded.goto(demo_web.url("/acme/"))
    assert len(demo_web.request_log) == before  # not even robots.txt was requested


def test_redirect_into_a_private_network_is_stopped_at_the_proxy(session: BrowserSession, runtime, trap_url):
    with pytest.raises(BlockedAddress, match="redirected to a refused address"):
        session.goto(f"{trap_url}/redirect-chain")
    refusal = runtime.proxy_refusal("http://10.0.0.1/secret")
    assert refusal is not None and refusal.reason == "blocked-address"


def test_link_clicked_into_a_private_network_is_aborted(session: BrowserSession, trap_url):
    session.goto(f"{trap_url}/link-private")
    with pytest.raises(BlockedAddress, match="10.0.0.1"):
        session.click("#out")
    assert session.url == f"{trap_url}/link-private"  # back on the page the click started from
    assert session.count("#out") == 1


def test_subresource_from_a_private_network_is_aborted_but_the_page_loads(session: BrowserSession, trap_url):
    navigation = session.goto(f"{trap_url}/image-private")
    assert navigation.status == 200
    assert session.count("#ok") == 1
    refused = [r.url for r in session._tab.refusals]
    assert "http://10.0.0.1/pixel.png" in refused


def test_robots_txt_refuses_navigations_we_start_and_ones_the_page_starts(session: BrowserSession, demo_web):
    served_before = len(demo_web.request_log)  # the demo web is shared: only this test's requests count
    with pytest.raises(RobotsDisallowed):
        session.goto(demo_web.url("/private/"))
    session.goto(demo_web.url("/globex/careers/"))
    with pytest.raises(RobotsDisallowed):
        session.click("footer a[href='/private/']")
    assert session.url == demo_web.url("/globex/careers/")
    assert not any(path.startswith("/private/") for path in demo_web.request_log.paths()[served_before:])


def test_downloads_are_refused(runtime: BrowserRuntime, trap_url):
    with BrowserFetcher(runtime) as fetcher, pytest.raises(BrowserFetchError, match="download"):
        fetcher.fetch(f"{trap_url}/download")


@pytest.mark.parametrize(("page", "target"), [("/meta-private", "http://10.0.0.1/m"),
                                              ("/script-private", "http://10.0.0.1/s")])
def test_a_page_navigating_itself_somewhere_refused_raises_instead_of_returning_the_error_page(
        session: BrowserSession, trap_url, page, target):
    with pytest.raises(BlockedAddress, match=f"navigated itself to {target}, which was refused"):
        session.goto(f"{trap_url}{page}")


def test_webrtc_sends_no_udp_past_the_proxy(session: BrowserSession, trap_url):
    """A page creating an RTCPeerConnection with a STUN server on 127.0.0.1: not one datagram arrives."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    listener.bind(("127.0.0.1", 0))
    listener.settimeout(0.2)
    port = listener.getsockname()[1]
    TRAP_PAGES["/webrtc"] = (200, {"Content-Type": "text/html"}, f"""<html><body><p id="state">start</p><script>
const pc = new RTCPeerConnection({{iceServers: [{{urls: "stun:127.0.0.1:{port}"}}]}});
pc.createDataChannel("leak");
pc.onicegatheringstatechange = () => {{ document.getElementById("state").textContent = pc.iceGatheringState; }};
pc.createOffer().then(offer => pc.setLocalDescription(offer));
</script></body></html>""".encode())
    received = []
    try:
        session.goto(f"{trap_url}/webrtc")
        deadline = time.monotonic() + 3.0
        while time.monotonic() < deadline:
            try:
                received.append(listener.recvfrom(2048))
            except OSError:
                continue
        assert session.count("#state") == 1  # the page ran
    finally:
        listener.close()
        TRAP_PAGES.pop("/webrtc", None)
    assert received == []


def test_credentials_in_a_url_are_dropped_by_the_browser_fetcher(runtime: BrowserRuntime, trap_url):
    with BrowserFetcher(runtime) as fetcher:
        page = fetcher.fetch(trap_url.replace("http://", "http://alice:s3cr3t@", 1) + "/link-private")
    assert page.url == f"{trap_url}/link-private" and "s3cr3t" not in page.requested_url
