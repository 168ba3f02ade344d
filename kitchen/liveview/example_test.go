package liveview_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/kitchensync/kitchensync/kitchen/liveview"
	"github.com/kitchensync/kitchensync/kitchen/restaurant"
	"github.com/kitchensync/kitchensync/trace"
)

// The live view is one handler: mount it, and its buttons act on the
// restaurant it shows. A program would serve it with [liveview.Serve] and
// open the page in a browser; here a recorder presses two buttons.
func ExampleHandler() {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r, err := restaurant.Open(ctx, restaurant.Config{Tracer: trace.New()})
	if err != nil {
		panic(err)
	}
	go r.Run(ctx)
	view := liveview.Handler(ctx, r)

	for _, button := range []string{"/actions/place?dish=caesar-salad", "/actions/fail?n=oops"} {
		w := httptest.NewRecorder()
		view.ServeHTTP(w, httptest.NewRequest(http.MethodPost, button, nil))
		fmt.Println(w.Code, strings.TrimSpace(w.Body.String()))
	}
	// Output:
	// 200 {"message":"placed order-001"}
	// 400 {"error":"n: want a whole number from 0 to 100, got \"oops\""}
}
