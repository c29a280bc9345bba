"""The synthetic shop the scale benchmark runs against: pages made from byte templates say what
``item_truth`` says, conditional requests get 304, and its counts hold with many connections at once."""

from __future__ import annotations

import http.client
import socket
from concurrent.futures import ThreadPoolExecutor

from lxml import html

from scrapesmith.sites.synthetic import ITEM_FIELDS, item_truth, serve_synthetic


def _get(host: str, paths: list[str], headers: dict[str, str] | None = None) -> list[tuple[int, dict, bytes]]:
    """GET each path on one keep-alive connection."""
    name, port = host.split(":")
    connection = http.client.HTTPConnection(name, int(port), timeout=10)
    answers = []
    for path in paths:
        connection.request("GET", path, headers=headers or {})
        response = connection.getresponse()
        answers.append((response.status, dict(response.getheaders()), response.read()))
    connection.close()
    return answers


def test_item_pages_say_what_their_truth_says_and_answer_a_matching_etag_with_304():
    with serve_synthetic(1_000_100) as shop:
        numbers = [0, 7, 1234, 999_999, 1_000_050]
        for number, (status, headers, body) in zip(numbers, _get(shop.host, [f"/item/{n}" for n in numbers]),
                                                   strict=True):
            tree = html.fromstring(body)
            assert status == 200 and int(headers["Content-Length"]) == len(body)
            assert {field: tree.xpath(xpath)[0] for field, xpath in ITEM_FIELDS.items()} == item_truth(number)
            assert len(tree.xpath("//section[@class='related']//a")) == 12
        shop.site.change(7)
        (status, headers, body), = _get(shop.host, ["/item/7"])
        assert html.fromstring(body).xpath(ITEM_FIELDS["price"])[0] == item_truth(7, 1)["price"]
        (again, _headers, empty), = _get(shop.host, ["/item/7"], {"If-None-Match": headers["ETag"]})
        assert (again, empty) == (304, b"") and shop.site.stats()["not_modified"] == 1
        assert [status for status, _h, _b in _get(shop.host, ["/item/1000100", "/nowhere"])] == [404, 404]


def test_a_malformed_request_gets_400_and_counts_hold_with_many_connections():
    with serve_synthetic(2_000) as shop:
        name, port = shop.host.split(":")
        with socket.create_connection((name, int(port)), timeout=10) as raw:
            raw.sendall(b"BREW /pot HTTP/1.1\r\n\r\n")
            assert raw.recv(100).startswith(b"HTTP/1.1 400 ")
        with ThreadPoolExecutor(8) as pool:
            done = list(pool.map(lambda first: _get(shop.host, [f"/item/{n}" for n in range(first, 2_000, 8)]),
                                 range(8)))
        assert sum(len(answers) for answers in done) == 2_000
        stats = shop.site.stats()
        assert (stats["items_fetched"], stats["item_requests"], stats["requests"]) == (2_000, 2_000, 2_000)
