package browsertest

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/kitchensync/kitchensync/kitchen/liveview"
)

// TestThePassBehindAToken opens the page as serve -token prints it, with
// ?token=: the page trades it for a cookie, drops it from the address, and
// its event stream and buttons work with the cookie alone.
func TestThePassBehindAToken(t *testing.T) {
	url := openKitchen(t, 40*time.Millisecond, liveview.WithBearerToken("s3cret"))
	ctx := browser(t, 1280, 720, 60*time.Second)
	watchConsole(t, ctx)
	run(t, ctx, "open the page with ?token=",
		chromedp.Navigate(url+"?token=s3cret"),
		chromedp.WaitVisible(chromedp.CSS(`#conn.live`)),
		press(`button[data-action="place"]`),
		chromedp.WaitVisible(chromedp.CSS(`.order[data-name="order-001"][data-phase="Served"]`)))
	if loc := get(t, ctx, "read the address", chromedp.Evaluate[string](`location.href`)); loc != url {
		t.Errorf("the page is at %q, want %q (the token out of the address)", loc, url)
	}
	cookie := get(t, ctx, "read the cookies a script sees", chromedp.Evaluate[string](`document.cookie`))
	if cookie != "" {
		t.Errorf("a script can read the cookies %q, want none (HttpOnly)", cookie)
	}
}
