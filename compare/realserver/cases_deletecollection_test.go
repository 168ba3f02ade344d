package realserver

// The deletecollection answers in each form a client may ask for: the
// list of what was deleted as JSON, in the protobuf envelope (built-in
// kinds only: a custom resource that accepts only protobuf is 406, and
// nothing is deleted), or as a Table.
func init() { cases = append(cases, deleteCollectionCases...) }

// tableAccept is what kubectl get asks for first.
const tableAccept = "application/json;as=Table;v=v1;g=meta.k8s.io"

var deleteCollectionCases = []diffCase{
	{"delete-collection-protobuf", []step{
		{Method: "PUT", Path: leasesPath + "/le-dcp", Body: lease(`"name":"le-dcp","labels":{"set":"dcp"}`, `"holderIdentity":"a"`)},
		{Method: "DELETE", Path: leasesPath + "?labelSelector=set%3Ddcp", Accept: protobufMediaType},
		{Method: "DELETE", Path: leasesPath + "?labelSelector=set%3Ddcp", Accept: protobufMediaType + ", application/json"},
		{Method: "POST", Body: widget(`"name":"dcp","labels":{"set":"dcp"}`, "")},
		{Method: "DELETE", Path: "?labelSelector=set%3Ddcp", Accept: protobufMediaType},
		{Method: "GET", Path: "/dcp"},
		{Method: "DELETE", Path: "?labelSelector=set%3Ddcp", Accept: protobufMediaType + ", application/json"},
	}},
	{"delete-collection-not-acceptable", []step{
		{Method: "PUT", Path: leasesPath + "/le-dcn", Body: lease(`"name":"le-dcn","labels":{"set":"dcn"}`, `"holderIdentity":"a"`)},
		{Method: "DELETE", Path: leasesPath + "?labelSelector=set%3Ddcn", Accept: "text/plain"},
		{Method: "GET", Path: leasesPath + "/le-dcn"},
		{Method: "GET", Path: leasesPath + "?labelSelector=set%3Ddcn", Accept: "text/plain"},
		{Method: "GET", Path: "?labelSelector=set%3Ddcn", Accept: protobufMediaType},
		{Method: "GET", Path: "?labelSelector=set%3Ddcn", Accept: "text/plain"},
	}},
	{"delete-collection-json", []step{
		{Method: "PUT", Path: leasesPath + "/le-dcj", Body: lease(`"name":"le-dcj","labels":{"set":"dcj"}`, `"holderIdentity":"a"`)},
		{Method: "DELETE", Path: leasesPath + "?labelSelector=set%3Ddcj", Accept: "application/json"},
	}},
	{"delete-collection-table", []step{
		{Method: "PUT", Path: leasesPath + "/le-dct", Body: lease(`"name":"le-dct","labels":{"set":"dct"}`, `"holderIdentity":"a"`)},
		{Method: "DELETE", Path: leasesPath + "?labelSelector=set%3Ddct", Accept: tableAccept},
		{Method: "POST", Body: widget(`"name":"dct","labels":{"set":"dct"}`, `"spec":{"color":"red"}`)},
		{Method: "DELETE", Path: "?labelSelector=set%3Ddct", Accept: tableAccept},
		{Method: "DELETE", Path: "?labelSelector=set%3Ddct", Accept: tableAccept + ", application/json"},
		{Method: "DELETE", Path: gadgetsPath + "?labelSelector=set%3Dnone", Accept: tableAccept},
	}},
}

// tables finds the Tables of an answer (the answer itself, a watch
// event's object, or those of a stream) and normalises each: without
// columns, it drops their column definitions and rows' cells, as for a
// custom kind, whose columns kitchensync chooses (Name, one per field
// selector, Age: see apiserver/httpapi) where a real server has its
// printer columns; what is compared is then that a Table came, its
// metadata, and which objects its rows are. With columns (a built-in
// kind, whose printer kitchensync copies), only the cells of the columns
// that show an age are replaced, by "<age>": the two servers' objects
// are not created at the same second.
func tables(doc any, columns bool) any {
	switch d := doc.(type) {
	case []any:
		for i := range d {
			d[i] = tables(d[i], columns)
		}
	case map[string]any:
		if d["kind"] != "Table" {
			if obj, ok := d["object"]; ok && d["type"] != nil {
				d["object"] = tables(obj, columns)
			}
			return d
		}
		tableCells(d, columns)
	}
	return doc
}

func tableCells(m map[string]any, columns bool) {
	defs, _ := m["columnDefinitions"].([]any)
	if !columns {
		delete(m, "columnDefinitions")
	}
	rows, _ := m["rows"].([]any)
	for _, r := range rows {
		row, ok := r.(map[string]any)
		if !ok {
			continue
		}
		cells, _ := row["cells"].([]any)
		if !columns {
			delete(row, "cells")
			continue
		}
		for i, def := range defs {
			switch name, _ := def.(map[string]any)["name"].(string); name {
			case "Age", "Last Seen", "First Seen":
				if i < len(cells) {
					cells[i] = "<age>"
				}
			}
		}
	}
}
