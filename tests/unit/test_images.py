"""The screenshot store and the PNG header it reads, and the link shaping."""

from __future__ import annotations

import base64
import re

import pytest

from godot_bridge.editor.screenshot_store import URI_PREFIX, ImageStore, ImageTooLarge
from godot_bridge.godot_files.png import PngError, png_size
from godot_bridge.editor.screenshots import LinkPlan, link_result, toolkit_params
from godot_bridge.errors import ToolError
from tests.support.pngs import make_png


def test_png_size_reads_the_ihdr() -> None:
    assert png_size(make_png(7, 3)) == (7, 3)
    assert png_size(make_png(1280, 1)) == (1280, 1)


@pytest.mark.parametrize(("data", "why"), [
    (b"GIF89a" + b"\0" * 40, "signature"),
    (make_png(4, 4)[:20], "truncated"),
    (make_png(4, 4).replace(b"IHDR", b"IHDX", 1), "IHDR"),
    (make_png(0, 4), "0x4"),
    (b"", "signature"),
])
def test_png_size_refuses_what_is_not_a_png(data: bytes, why: str) -> None:
    with pytest.raises(PngError, match=why):
        png_size(data)


def test_kept_image_describes_itself() -> None:
    store = ImageStore()
    png = make_png(32, 18)
    image = store.keep(png, source="game window")
    assert re.fullmatch(URI_PREFIX + r"[0-9a-f]{24}\.png", image.uri)
    assert store.find(image.uri) is image and image.data == png
    link = image.link()
    assert link["type"] == "resource_link" and link["uri"] == image.uri and link["mimeType"] == "image/png"
    assert link["size"] == len(png) and link["name"] == "screenshot-1.png"
    assert "32x18" in link["description"] and "game window" in link["description"]
    assert {k: v for k, v in link.items() if k != "type"} == image.resource()


def test_ids_are_random_and_never_reused() -> None:
    store = ImageStore(max_count=1)
    uris = [store.keep(make_png(2, 2), source="s").uri for _ in range(50)]
    assert len(set(uris)) == 50
    assert [i.name for i in store.images()] == ["screenshot-50.png"]


def test_oldest_evicted_by_count() -> None:
    store = ImageStore(max_count=3)
    kept = [store.keep(make_png(n, 1), source="s") for n in range(1, 6)]
    assert [i.width for i in store.images()] == [5, 4, 3]  # newest first
    assert store.find(kept[0].uri) is None and store.find(kept[1].uri) is None
    assert store.total_bytes == sum(i.size for i in kept[2:])


def test_oldest_evicted_by_bytes() -> None:
    pngs = [make_png(n, 40, (n, 0, 0)) for n in (10, 11, 12)]
    store = ImageStore(max_count=10, max_bytes=len(pngs[1]) + len(pngs[2]))
    kept = [store.keep(p, source="s") for p in pngs]
    assert len(store) == 2 and store.find(kept[0].uri) is None
    assert store.total_bytes <= store.max_bytes


def test_one_image_larger_than_the_store_is_refused_and_nothing_is_lost() -> None:
    small = make_png(2, 2)
    store = ImageStore(max_bytes=len(small) + 10)
    first = store.keep(small, source="s")
    with pytest.raises(ImageTooLarge, match="bytes"):
        store.keep(make_png(300, 300, (1, 2, 3)) + b"\0" * 100, source="s")
    assert store.find(first.uri) is first and len(store) == 1


@pytest.mark.parametrize("uri", ["godot://screenshots/nope.png", "godot://screenshots/", "godot://other/x.png",
                                 "godot://screenshots/" + "a" * 24 + ".jpg"])
def test_find_unknown_or_malformed(uri: str) -> None:
    store = ImageStore()
    store.keep(make_png(2, 2), source="s")
    assert store.find(uri) is None


def test_store_bounds_must_be_positive() -> None:
    with pytest.raises(ValueError):
        ImageStore(max_count=0)


# -- what the toolkit is asked, and what the model gets --------------------------------------------


def test_params_without_link_go_out_untouched() -> None:
    assert toolkit_params({"image_detail": "low"}, "inline") == ({"image_detail": "low"}, None)
    assert toolkit_params({"image_response_mode": "disk"}, "link") == ({"image_response_mode": "disk"}, None)
    assert toolkit_params({"image_response_mode": "inline"}, "link") == ({"image_response_mode": "inline"}, None)
    assert toolkit_params({"thumbnail": False}, "inline") == ({}, None)


def test_link_asks_inline_or_both_with_a_save_path() -> None:
    plain = LinkPlan(thumbnail=None)
    assert toolkit_params({"image_response_mode": "link"}, "inline") == ({"image_response_mode": "inline"}, plain)
    assert toolkit_params({}, "link") == ({"image_response_mode": "inline"}, plain)
    params, link = toolkit_params({"image_response_mode": "link", "save_path": "user://screenshots/a.png"}, "inline")
    assert link == plain and params == {"image_response_mode": "both", "save_path": "user://screenshots/a.png"}


def test_thumbnail_is_a_low_detail_inline_capture_without_the_file() -> None:
    args = {"image_response_mode": "link", "save_path": "res://a.png", "node_path": "Sprite", "thumbnail": True}
    params, link = toolkit_params(args, "inline")
    assert params == {"image_response_mode": "both", "save_path": "res://a.png", "node_path": "Sprite"}
    assert link == LinkPlan({"image_response_mode": "inline", "image_detail": "low", "node_path": "Sprite"})


def test_thumbnail_without_link_is_refused() -> None:
    with pytest.raises(ToolError) as refused:
        toolkit_params({"image_response_mode": "disk", "thumbnail": True}, "link")
    assert refused.value.code == "INVALID_PARAMS" and "image_response_mode link" in refused.value.message


def _reply(png: bytes) -> dict[str, object]:
    return {"success": True, "mime_type": "image/png", "image_base64": base64.b64encode(png).decode(),
            "width": 64, "height": 36, "bytes": len(png), "image_detail": "full", "returned": "64x36"}


def test_link_result_keeps_the_image_and_links_it() -> None:
    store = ImageStore()
    png = make_png(64, 36)
    out = link_result(_reply(png), store, "runtime")
    assert not out.is_error
    link, text = out.content
    image = store.find(link["uri"])
    assert image is not None and image.data == png and "game window" in link["description"]
    assert out.structured["uri"] == link["uri"] and "image_base64" not in out.structured
    assert out.structured["returned"] == "64x36" and link["uri"] in text["text"]


def test_link_result_with_a_thumbnail_or_why_not() -> None:
    store = ImageStore()
    thumb = make_png(16, 9)
    preview = {"success": True, "image_base64": base64.b64encode(thumb).decode(), "mime_type": "image/png",
               "returned": "16x9"}
    out = link_result(_reply(make_png(64, 36)), store, "runtime", preview)
    link, image, _text = out.content
    assert link["type"] == "resource_link" and image == {"type": "image", "data": preview["image_base64"],
                                                          "mimeType": "image/png"}
    assert out.structured["thumbnail"] == "16x9"
    failed = link_result(_reply(make_png(64, 36)), store, "runtime", {"success": False, "error": "minimized"})
    assert [b["type"] for b in failed.content] == ["resource_link", "text"] and not failed.is_error
    assert failed.structured["thumbnail"] == "unavailable: minimized"


@pytest.mark.parametrize(("image_base64", "code"), [
    ("", "EMPTY_CONTENT"), (None, "EMPTY_CONTENT"), ("***", "IMAGE_UNREADABLE"),
    (base64.b64encode(b"not a png at all").decode(), "IMAGE_UNREADABLE"),
])
def test_link_result_refuses_unusable_image_data(image_base64: object, code: str) -> None:
    store = ImageStore()
    reply = {**_reply(make_png(2, 2)), "image_base64": image_base64}
    out = link_result(reply, store, "editor")
    assert out.is_error and out.structured["code"] == code and len(store) == 0


def test_link_result_passes_toolkit_failures_through() -> None:
    failure = {"success": False, "code": "EDITOR_VIEWPORT_UNAVAILABLE", "error": "minimized", "hint": "h"}
    out = link_result(failure, ImageStore(), "editor")
    assert out.is_error and out.structured == {"success": False, "code": "EDITOR_VIEWPORT_UNAVAILABLE",
                                               "error": "minimized", "hint": "h"}


def test_link_result_too_large_for_the_store() -> None:
    out = link_result(_reply(make_png(50, 50)), ImageStore(max_bytes=20), "runtime")
    assert out.is_error and out.structured["code"] == "RESULT_TOO_LARGE" and "image_detail" in out.structured["hint"]
