package apiextensions

import "reflect"

// deepCopyJSON returns a copy of crd that shares no memory with it. A
// schema is a deep tree of structs, maps, slices and raw JSON; walking it
// by reflection copies every field there is, and cannot fail.
func deepCopyJSON(crd *CustomResourceDefinition) *CustomResourceDefinition {
	return deepCopyValue(reflect.ValueOf(crd)).Interface().(*CustomResourceDefinition)
}

// deepCopyValue copies v: pointers, slices and maps anew, structs field
// by field (unexported fields, such as time.Time's, as they are).
func deepCopyValue(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return v
		}
		out := reflect.New(v.Type().Elem())
		out.Elem().Set(deepCopyValue(v.Elem()))
		return out
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		out := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := range v.Len() {
			out.Index(i).Set(deepCopyValue(v.Index(i)))
		}
		return out
	case reflect.Map:
		if v.IsNil() {
			return v
		}
		out := reflect.MakeMapWithSize(v.Type(), v.Len())
		for it := v.MapRange(); it.Next(); {
			out.SetMapIndex(it.Key(), deepCopyValue(it.Value()))
		}
		return out
	case reflect.Struct:
		out := reflect.New(v.Type()).Elem()
		out.Set(v)
		for i := range v.NumField() {
			if out.Field(i).CanSet() {
				out.Field(i).Set(deepCopyValue(v.Field(i)))
			}
		}
		return out
	}
	return v
}
