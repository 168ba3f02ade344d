package browsertest

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestThePipelineTextFitsItsBoxes renders the pipeline mid-rush, when its
// boxes say the most, at 1280×800 and at 390×844: every text of a box
// stays inside the box, whole (not cut off with "…"), its title clear of
// its count, and every arrow's label clear of every box and inside the
// picture.
func TestThePipelineTextFitsItsBoxes(t *testing.T) {
	ctx, dir, _ := openPage(t, 120*time.Second)
	run(t, ctx, "rush hour", press(`button[data-action="rush"]`),
		chromedp.WaitVisible(chromedp.CSS(`.order[data-name="order-050"]`)))
	for _, size := range []struct {
		name          string
		width, height int64
		opts          []chromedp.EmulateViewportOption
	}{
		{"1280", 1280, 800, nil},
		{"390", 390, 844, []chromedp.EmulateViewportOption{chromedp.EmulateMobile, chromedp.EmulateTouch}},
	} {
		run(t, ctx, "at "+size.name+" px", chromedp.EmulateViewport(size.width, size.height, size.opts...),
			poll(`document.querySelector("#pipe").viewBox.baseVal.width === `+map[string]string{"1280": "1000", "390": "360"}[size.name]))
		for range 3 { // the boxes change as the rush goes on
			for _, bad := range textOutside(t, ctx) {
				t.Errorf("at %s px: %s", size.name, bad)
			}
			at := get(t, ctx, "read the frame's time", chromedp.Evaluate[int](`lastFrame.at`))
			run(t, ctx, "wait for a later frame", poll(`lastFrame.at >= `+strconv.Itoa(at+700)))
		}
		screenshot(t, ctx, dir, "40-rush-text-"+size.name+".png")
	}
}

// textOutside lists the pipeline's texts that leave their place.
func textOutside(t *testing.T, ctx context.Context) []string {
	t.Helper()
	return get(t, ctx, "measure the texts", chromedp.Evaluate[[]string](`(() => {
		const bad = [], pipe = document.querySelector("#pipe");
		const inside = (a, b) => a.left >= b.left - 0.5 && a.right <= b.right + 0.5 && a.top >= b.top - 0.5 && a.bottom <= b.bottom + 0.5;
		const meet = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
		const boxes = [...pipe.querySelectorAll(".st")].map((g) => ({ id: g.id.slice(3), g, r: g.querySelector("rect.box") }));
		for (const b of boxes) {
			const w = Number(b.r.getAttribute("width"));
			for (const t of b.g.querySelectorAll("text")) {
				if (!t.textContent) continue;
				const bb = t.getBBox();
				if (/…/.test(t.textContent) && !/^… \d+ more$/.test(t.textContent)) bad.push(b.id + ": " + JSON.stringify(t.textContent) + " is cut off");
				if (bb.x < 2 || bb.x + bb.width > w - 2) bad.push(b.id + ": " + JSON.stringify(t.textContent) + " spans x " + bb.x.toFixed(0) + " to " + (bb.x + bb.width).toFixed(0) + " in a box " + w + " wide");
			}
			const title = b.g.querySelector(".title").getBBox(), count = b.g.querySelector(".count").getBBox();
			if (title.x + title.width > count.x - 4) bad.push(b.id + ": the title " + JSON.stringify(b.g.querySelector(".title").textContent) + " runs into the count");
		}
		const frame = pipe.getBoundingClientRect();
		for (const l of pipe.querySelectorAll(".alabel")) {
			const r = l.getBoundingClientRect();
			if (!inside(r, frame)) bad.push("the label " + JSON.stringify(l.textContent) + " leaves the picture");
			for (const b of boxes) if (meet(r, b.r.getBoundingClientRect())) bad.push("the label " + JSON.stringify(l.textContent) + " lies on the box " + b.id);
		}
		return bad;
	})()`))
}
