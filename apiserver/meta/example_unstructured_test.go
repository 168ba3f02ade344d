package meta_test

import (
	"encoding/json"
	"fmt"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// An object without a Go type of its own: typed metadata, the rest as
// decoded JSON, whole numbers as int64.
func ExampleUnstructured() {
	var u meta.Unstructured
	err := json.Unmarshal([]byte(`{"apiVersion":"restaurant.example.com/v1","kind":"Table",
		"metadata":{"name":"t7","labels":{"section":"vip"}},"spec":{"seats":4,"price":12.5}}`), &u)
	if err != nil {
		fmt.Println(err)
		return
	}
	seats, _ := u.NestedField("spec", "seats")
	price, _ := u.NestedField("spec", "price")
	fmt.Printf("%s %s: seats %v (%T), price %v (%T), labels %v\n", u.Kind, u.Name, seats, seats, price, price, u.Labels)
	u.SetNestedField("booked", "status", "phase")
	out, _ := json.Marshal(&u)
	fmt.Println(string(out))
	// Output:
	// Table t7: seats 4 (int64), price 12.5 (float64), labels map[section:vip]
	// {"apiVersion":"restaurant.example.com/v1","kind":"Table","metadata":{"name":"t7","labels":{"section":"vip"}},"spec":{"price":12.5,"seats":4},"status":{"phase":"booked"}}
}
