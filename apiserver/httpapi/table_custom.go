package httpapi

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// hasPrinterColumns reports whether a kind's tables follow printer
// columns, as a CustomResourceDefinition's do: a kind that declares
// them, or an unstructured kind (with the default Age column).
func hasPrinterColumns(info meta.KindInfo) bool {
	return len(info.PrinterColumns) > 0 || info.IsUnstructured()
}

// nameColumnDoc is kube-apiserver's description of the Name column.
const nameColumnDoc = "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names"

// printerColumns is Name and the kind's printer columns (Age, from
// creationTimestamp, if it declares none), as the real server's table
// of a custom resource.
func printerColumns(info meta.KindInfo) ([]tableColumnDefinition, []meta.PrinterColumn) {
	cols := info.PrinterColumns
	if len(cols) == 0 {
		cols = []meta.PrinterColumn{{Name: "Age", Type: "date", JSONPath: ".metadata.creationTimestamp"}}
	}
	defs := []tableColumnDefinition{{Name: "Name", Type: "string", Format: "name", Description: nameColumnDoc}}
	for _, c := range cols {
		defs = append(defs, tableColumnDefinition{Name: c.Name, Type: c.Type, Format: c.Format, Description: c.Description, Priority: c.Priority})
	}
	return defs, cols
}

// printerCells is obj's row under printerColumns: its name, then each
// column's value found by its JSON path (nil if none), a date as an age.
func printerCells(cols []meta.PrinterColumn, obj meta.Object, now time.Time) []any {
	cells := []any{obj.GetObjectMeta().Name}
	var doc any
	for _, c := range cols {
		if c.Value != nil {
			cells = append(cells, c.Value(obj))
			continue
		}
		if doc == nil {
			if b, err := json.Marshal(obj); err == nil {
				doc, _ = meta.DecodeJSONValue(b)
			}
		}
		vals := meta.JSONPathValues(doc, c.JSONPath)
		if len(vals) == 0 || vals[0] == nil {
			cells = append(cells, nil)
			continue
		}
		cells = append(cells, printerCell(c, vals[0], now))
	}
	return cells
}

// printerCell formats one value as its column's type says.
func printerCell(c meta.PrinterColumn, v any, now time.Time) any {
	switch c.Type {
	case "date":
		s, _ := v.(string)
		if t, err := time.Parse(time.RFC3339, s); err == nil {
			return humanDuration(now.Sub(t))
		}
		return "<invalid>"
	case "string":
		if s, ok := v.(string); ok {
			return s
		}
		return fmt.Sprint(v)
	}
	return v
}
