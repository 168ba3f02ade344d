package browsertest

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/kitchensync/kitchensync/kitchen"
	"github.com/kitchensync/kitchensync/kitchen/liveview"
	"github.com/kitchensync/kitchensync/kitchen/restaurant"
	"github.com/kitchensync/kitchensync/trace"
)

// chromium finds a Chromium or Chrome binary, or skips the test.
func chromium(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no chromium binary found (install it: apt-get install -y chromium, or set CHROMIUM=/path/to/chrome)")
	return ""
}

// openKitchen runs a restaurant with its live view on a free port, behind
// the door given (by default: loopback only, no token), and returns the
// page's address.
func openKitchen(t *testing.T, minute time.Duration, door ...liveview.Option) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	// As examples/serve: a gate in the kitchen's seams, so that the page
	// can pause and step it, and Events (which brings the Lease kind for
	// the Lease scene).
	gate := liveview.NewGate()
	cfg := restaurant.Config{Minute: minute, Chefs: 2, Tracer: trace.New(), Stock: plentiful(), Events: true}
	gate.Pace(&cfg)
	r, err := restaurant.Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	door = append(door, liveview.WithGate(gate))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{}, 2)
	site := liveview.NewSite(ctx, r, door...) // before Run: the page sees the first LIST and WATCH
	go func() { _ = r.Run(ctx); done <- struct{}{} }()
	go func() { _ = site.Serve(ctx, ln); done <- struct{}{} }()
	t.Cleanup(func() { cancel(); <-done; <-done })
	return "http://" + ln.Addr().String() + "/"
}

func plentiful() map[string]kitchen.Quantity {
	stock := kitchen.DefaultPantry()
	for name, q := range stock {
		if a, err := kitchen.ParseQuantity(q); err == nil {
			stock[name] = kitchen.Quantity(a.Times(100).String())
		}
	}
	return stock
}

// browser starts headless Chromium at width×height and returns its
// context; everything stops at the test's end or after limit.
func browser(t *testing.T, width, height int, limit time.Duration) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium(t)),
		chromedp.NoSandbox,
		chromedp.WindowSize(width, height),
		chromedp.Flag("disable-dev-shm-usage", true),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	bctx, cancelCtx := chromedp.NewContext(actx)
	if err := chromedp.Do(bctx); err != nil { // start the browser, without a deadline
		cancelCtx()
		cancelAlloc()
		t.Fatal(err)
	}
	ctx, cancelTime := context.WithTimeout(bctx, limit)
	t.Cleanup(func() { cancelTime(); cancelCtx(); cancelAlloc() })
	return ctx
}

// watchConsole collects what the page writes to the console as errors,
// and uncaught exceptions, from now on; the test fails at its end if
// there are any.
func watchConsole(t *testing.T, ctx context.Context) {
	t.Helper()
	var mu sync.Mutex
	var errs []string
	lctx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for m, err := range chromedp.Console(lctx) {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.IsException() {
				mu.Lock()
				errs = append(errs, m.String())
				mu.Unlock()
			}
		}
	}()
	t.Cleanup(func() {
		stop()
		<-done
		mu.Lock()
		defer mu.Unlock()
		for _, e := range errs {
			t.Errorf("console: %s", e)
		}
	})
}

// shotDir is where screenshots go: $KITCHENSYNC_SCREENSHOTS, or
// browsertest/screenshots (gitignored), kept as the run's artefacts.
func shotDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("KITCHENSYNC_SCREENSHOTS")
	if dir == "" {
		dir = "screenshots" // kept after the run, and gitignored
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshots in %s", dir)
	return dir
}

// screenshot saves the viewport as dir/name and checks that it is not
// blank: a real page has many colours and many pixels unlike the first.
func screenshot(t *testing.T, ctx context.Context, dir, name string) {
	t.Helper()
	// Let the dots that are moving arrive, for a picture worth keeping;
	// a kitchen that keeps them moving is pictured as it is after 2 s.
	settle, cancel := context.WithTimeout(ctx, 2*time.Second)
	_, _ = chromedp.Run(settle, chromedp.Poll[bool](`document.getAnimations().every((a) => a.playState !== "running")`))
	cancel()
	buf, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), buf, 0o644); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(buf))
	if err != nil {
		t.Fatalf("screenshot %s is not a PNG: %v", name, err)
	}
	colours, differ := blankness(img)
	if colours < 16 || differ < 0.05 {
		t.Errorf("screenshot %s looks blank: %d colours, %.1f%% of pixels unlike the corner", name, colours, 100*differ)
	}
}

// blankness counts distinct colours and the share of pixels that differ
// from the top-left one.
func blankness(img image.Image) (colours int, differ float64) {
	b := img.Bounds()
	seen := map[[3]uint32]bool{}
	r0, g0, b0, _ := img.At(b.Min.X, b.Min.Y).RGBA()
	n, d := 0, 0
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			r, g, bl, _ := img.At(x, y).RGBA()
			seen[[3]uint32{r >> 8, g >> 8, bl >> 8}] = true
			n++
			if r != r0 || g != g0 || bl != b0 {
				d++
			}
		}
	}
	return len(seen), float64(d) / float64(n)
}
