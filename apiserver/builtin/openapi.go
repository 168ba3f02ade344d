package builtin

// OpenAPISchemaType tells [meta.SchemaOf] that a MicroTime is written
// as a string, as metav1.MicroTime declares itself.
func (MicroTime) OpenAPISchemaType() []string { return []string{"string"} }

// OpenAPISchemaFormat is "date-time", as for metav1.MicroTime.
func (MicroTime) OpenAPISchemaFormat() string { return "date-time" }
