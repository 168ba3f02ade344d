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

// tableWithoutColumns drops a Table's column definitions and its rows'
// cells: kitchensync's columns are its own (Name, one per field
// selector, Age: see apiserver/httpapi), where a real server has each
// kind's printer columns. What is compared is that a Table came, its
// metadata, and which objects its rows are.
func tableWithoutColumns(doc any) any {
	m, ok := doc.(map[string]any)
	if !ok || m["kind"] != "Table" {
		return doc
	}
	delete(m, "columnDefinitions")
	rows, _ := m["rows"].([]any)
	for _, r := range rows {
		if row, ok := r.(map[string]any); ok {
			delete(row, "cells")
		}
	}
	return m
}
