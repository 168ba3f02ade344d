package apiserver_test

import (
	"bytes"
	"context"
	"fmt"
	"os"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// A durable server keeps every acknowledged write in its directory; the
// next process that opens it finds the same objects at the same
// resourceVersions, and a watch from before the restart gets 410.
func ExampleOpen() {
	dir, _ := os.MkdirTemp("", "desk")
	defer os.RemoveAll(dir)
	ctx := context.Background()

	srv, _ := apiserver.Open(apiservertest.NewScheme(), dir, apiserver.Options{})
	widgets := client.New[*apiservertest.Widget](srv).Namespace("ns")
	w, _ := widgets.Create(ctx, apiservertest.NewWidget("ns", "table-7"), meta.CreateOptions{})
	fmt.Println("written at", w.ResourceVersion)
	srv.Close() // the process ends

	again, _ := apiserver.Open(apiservertest.NewScheme(), dir, apiserver.Options{})
	defer again.Close()
	got, _ := client.New[*apiservertest.Widget](again).Namespace("ns").Get(ctx, "table-7", meta.GetOptions{})
	fmt.Println("after the restart:", got.Name, "at", got.ResourceVersion, "same uid:", got.UID == w.UID)
	watch, _ := again.Resource(apiservertest.WidgetsResource).Watch(ctx, meta.ListOptions{ResourceVersion: "1"})
	ev := <-watch.ResultChan()
	fmt.Println("a watch from rv 1:", ev.Type, ev.Object.(*meta.Status).Code)
	watch.Stop()
	// Output:
	// written at 2
	// after the restart: table-7 at 2 same uid: true
	// a watch from rv 1: ERROR 410
}

// A snapshot is a backup of every object at one resourceVersion; Restore
// makes a server of it (etcdctl snapshot save and restore, or Velero).
func ExampleServer_Snapshot() {
	ctx := context.Background()
	srv := apiserver.NewServer(apiservertest.NewScheme(), apiserver.Options{})
	widgets := client.New[*apiservertest.Widget](srv).Namespace("ns")
	widgets.Create(ctx, apiservertest.NewWidget("ns", "cake-1"), meta.CreateOptions{})
	widgets.Create(ctx, apiservertest.NewWidget("ns", "cake-2"), meta.CreateOptions{})

	var backup bytes.Buffer
	rv, _ := srv.Snapshot(&backup)
	fmt.Println("snapshot at", rv)
	widgets.Delete(ctx, "cake-1", meta.DeleteOptions{}) // the accident

	restored, _ := apiserver.Restore(apiservertest.NewScheme(), &backup, apiserver.Options{})
	list, _, _ := client.New[*apiservertest.Widget](restored).List(ctx, meta.ListOptions{})
	for _, w := range list {
		fmt.Println("restored", w.Name, "at", w.ResourceVersion)
	}
	// Output:
	// snapshot at 3
	// restored cake-1 at 2
	// restored cake-2 at 3
}
