package reconcile_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/informer"
	"github.com/kitchensync/kitchensync/reconcile"
)

// stoppedInformer refuses handlers, as a SharedIndexInformer does once it
// has stopped.
type stoppedInformer struct{}

func (stoppedInformer) AddEventHandler(informer.ResourceEventHandler[*apiservertest.Widget]) (*informer.Registration, error) {
	return nil, errors.New("informer: handler not added: the informer has stopped")
}

func (stoppedInformer) RemoveEventHandler(*informer.Registration) error { return nil }

// A controller whose informer refuses its handler fails to start, unless
// its context has already ended: then the refusal is the same shutdown
// reaching the informer first (a program stopped while it was starting),
// and Start reports a normal shutdown.
func TestStartOnAStoppedInformer(t *testing.T) {
	for _, tc := range []struct {
		name     string
		canceled bool
		wantErr  string
	}{
		{name: "running", wantErr: `reconcile: controller "test": `},
		{name: "stopping", canceled: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newController(t, newRecorder(), reconcile.Options{})
			if err := reconcile.For[*apiservertest.Widget](c, stoppedInformer{}); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(t.Context())
			if tc.canceled {
				cancel()
			}
			defer cancel()
			err := c.Start(ctx)
			switch {
			case tc.wantErr == "" && err != nil:
				t.Errorf("Start = %v, want nil", err)
			case tc.wantErr != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.wantErr)):
				t.Errorf("Start = %v, want an error starting %q", err, tc.wantErr)
			}
		})
	}
}
