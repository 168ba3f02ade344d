package apiservertest

import (
	"testing"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// WidgetKind returns the registration of [Widget]: namespaced, resource
// "widgets", with the extra field selector "spec.color".
func WidgetKind() meta.KindInfo {
	return meta.KindInfo{
		Group: Group, Version: Version, Kind: "Widget", Resource: "widgets", Namespaced: true,
		New: func() meta.Object { return &Widget{} },
		Fields: map[string]meta.FieldFunc{
			"spec.color": func(obj meta.Object) string { return obj.(*Widget).Spec.Color },
		},
	}
}

// GadgetKind returns the registration of [Gadget]: cluster-scoped,
// resource "gadgets".
func GadgetKind() meta.KindInfo {
	return meta.KindInfo{
		Group: Group, Version: Version, Kind: "Gadget", Resource: "gadgets",
		New: func() meta.Object { return &Gadget{} },
	}
}

// NewScheme returns a scheme with [Widget] and [Gadget] registered.
func NewScheme() *meta.Scheme {
	s := meta.NewScheme()
	if err := s.Register(WidgetKind(), GadgetKind()); err != nil {
		panic(err) // the kinds above are valid: a failure is a bug here
	}
	return s
}

// NewServer returns a server with default options for the test kinds.
// When the test ends, every watch still running is closed, so that their
// goroutines end too (as a testing/synctest bubble requires), and, with
// the cache mutation detector on ([apiserver.CacheMutationDetectorEnv]),
// the test fails if a shared object was changed ([apiserver.Server.CheckMutations]).
func NewServer(tb testing.TB) *apiserver.Server {
	return NewServerWithOptions(tb, apiserver.Options{})
}

// NewServerWithOptions is [NewServer] with options.
func NewServerWithOptions(tb testing.TB, opts apiserver.Options) *apiserver.Server {
	s := apiserver.NewServer(NewScheme(), opts)
	tb.Cleanup(func() {
		s.CloseWatches()
		if err := s.CheckMutations(); err != nil {
			tb.Error(err)
		}
	})
	return s
}
