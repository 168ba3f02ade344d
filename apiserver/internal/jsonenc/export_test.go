package jsonenc

import (
	"reflect"
)

// FastUnmarshal reports whether Unmarshal decodes data into v (a
// pointer to a zero value) itself, without json.Unmarshal: what the
// tests count, so that they know the fast path was taken.
func FastUnmarshal(data []byte, v any) bool {
	rv := reflect.ValueOf(v)
	d := decoder{b: data}
	end, ok := decoderFor(rv.Type().Elem())(&d, rv.UnsafePointer(), 0)
	return ok && skipSpace(data, end) == len(data)
}
