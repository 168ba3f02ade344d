package store_test

import (
	"fmt"

	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/store"
)

// Order is the kind you write yourself: an order for one table, cooked in
// one section of the kitchen.
type Order struct {
	meta.TypeMeta
	meta.ObjectMeta
	Spec OrderSpec
}

// OrderSpec is what the customer asked for.
type OrderSpec struct {
	Dish    string
	Section string // "grill", "pastry", "vip", ...
}

// DeepCopyObject makes Order an meta.Object.
func (o *Order) DeepCopyObject() meta.Object {
	out := *o
	out.ObjectMeta = o.ObjectMeta.DeepCopy()
	return &out
}

func newOrder(table, dish, section string) *Order {
	return &Order{
		ObjectMeta: meta.ObjectMeta{Namespace: "dining-room", Name: table},
		Spec:       OrderSpec{Dish: dish, Section: section},
	}
}

// An Indexer files each order under its section, so the chef can ask for
// every VIP order without looking at the others.
func ExampleIndexer_ByIndex() {
	orders := store.NewIndexer(store.MetaNamespaceKeyFunc, store.Indexers[*Order]{
		"section": func(o *Order) ([]string, error) { return []string{o.Spec.Section}, nil },
	})
	_ = orders.Add(newOrder("table-1", "steak", "grill"))
	_ = orders.Add(newOrder("table-7", "beef wellington", "vip"))
	_ = orders.Add(newOrder("table-9", "lobster", "vip"))

	vip, err := orders.ByIndex("section", "vip")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, o := range vip {
		fmt.Println(o.Namespace+"/"+o.Name, o.Spec.Dish)
	}

	// Table 9 moves out of the VIP room: the update refiles it.
	_ = orders.Update(newOrder("table-9", "lobster", "grill"))
	keys, _ := orders.IndexKeys("section", "vip")
	fmt.Println("vip now:", keys)
	fmt.Println("sections:", orders.ListIndexFuncValues("section"))

	// Asking for an index nobody registered is an error, not a panic.
	_, err = orders.ByIndex("waiter", "anna")
	fmt.Println(err)
	// Output:
	// dining-room/table-7 beef wellington
	// dining-room/table-9 lobster
	// vip now: [dining-room/table-7]
	// sections: [grill vip]
	// store: unknown index "waiter": register it with NewIndexer or AddIndexers before asking for it
}

func ExampleSplitMetaNamespaceKey() {
	for _, key := range []string{"dining-room/table-7", "kitchen", "a/b/c"} {
		ns, name, err := store.SplitMetaNamespaceKey(key)
		fmt.Printf("%q %q %v\n", ns, name, err)
	}
	// Output:
	// "dining-room" "table-7" <nil>
	// "" "kitchen" <nil>
	// "" "" store: invalid key "a/b/c": it has more than one slash; want "namespace/name" or "name"
}

// The store remembers how far it has caught up with the server: the
// resourceVersion of the last list it was given, or of the last change its
// filler vouched for with Bookmark. A controller compares it with the
// resourceVersion of its own last write before trusting what it reads.
func ExampleIndexer_LastStoreSyncResourceVersion() {
	x := store.NewIndexer[*Order](nil, nil)
	fmt.Printf("empty: %q\n", x.LastStoreSyncResourceVersion())
	_ = x.Replace([]*Order{newOrder("table-1", "soup", "stove")}, "40")
	fmt.Printf("after the list: %q\n", x.LastStoreSyncResourceVersion())
	_ = x.Add(newOrder("table-2", "steak", "grill")) // an informer Bookmarks each change it applies
	x.Bookmark("41")
	fmt.Printf("after a change at 41: %q\n", x.LastStoreSyncResourceVersion())
	// Output:
	// empty: ""
	// after the list: "40"
	// after a change at 41: "41"
}
