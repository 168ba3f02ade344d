package meta

import "fmt"

// More cause types, as Kubernetes' field.ErrorType names them, for the
// errors a CustomResourceDefinition's schema finds.
const (
	CauseTypeFieldValueTypeInvalid CauseType = "FieldValueTypeInvalid"
	CauseTypeFieldValueTooMany     CauseType = "FieldValueTooMany"
	CauseTypeFieldValueDuplicate   CauseType = "FieldValueDuplicate"
)

// TypeInvalid records that field holds value, of the wrong type. Its
// message reads `Invalid value: "string": <detail>`.
func (e *FieldErrors) TypeInvalid(field string, value any, detail string) {
	e.add(CauseTypeFieldValueTypeInvalid, field, "Invalid value: "+formatValue(value), detail)
}

// TooMany records that field holds n items, more than limit. Its message
// reads `Too many: 4: must have at most 3 items`.
func (e *FieldErrors) TooMany(field string, n, limit int64) {
	e.add(CauseTypeFieldValueTooMany, field, fmt.Sprintf("Too many: %d", n), fmt.Sprintf("must have at most %d items", limit))
}

// Duplicate records that field repeats value. Its message reads
// `Duplicate value: "a"`.
func (e *FieldErrors) Duplicate(field string, value any) {
	e.add(CauseTypeFieldValueDuplicate, field, "Duplicate value: "+formatValue(value), "")
}
