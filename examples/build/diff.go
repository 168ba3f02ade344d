package build

import (
	"fmt"
	"strings"
)

// unified returns the lines of b that differ from a, as a unified diff
// ("+" added, "-" removed, " " context) in hunks with ctx lines of
// context around each change, and how many lines it adds. It finds the
// longest common subsequence of the lines, which for files of a few
// hundred lines is quick enough.
func unified(a, b []string, ctx int) (string, int) {
	ops := diffOps(a, b)
	var out strings.Builder
	added := 0
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		start := max(i-ctx, 0)
		end := i
		for end < len(ops) && (ops[end].kind != ' ' || nearChange(ops, end, ctx)) {
			end++
		}
		end = min(end+ctx, len(ops))
		fmt.Fprintf(&out, "@@ line %d @@\n", ops[start].line)
		for _, op := range ops[start:end] {
			if op.kind == '+' {
				added++
			}
			out.WriteString(strings.TrimRight(string(op.kind)+" "+op.text, " ") + "\n")
		}
		i = end
	}
	return out.String(), added
}

// nearChange reports whether a change follows within ctx*2 ops of i, so
// that two close changes share a hunk.
func nearChange(ops []op, i, ctx int) bool {
	for j := i; j < len(ops) && j <= i+2*ctx; j++ {
		if ops[j].kind != ' ' {
			return true
		}
	}
	return false
}

// An op is one line of the diff: kept, added or removed, with its line
// number in the new file (for a removed line, the next line's).
type op struct {
	kind byte
	text string
	line int
}

// diffOps turns a into b by the longest common subsequence of lines.
func diffOps(a, b []string) []op {
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var ops []op
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			ops = append(ops, op{' ', a[i], j + 1})
			i, j = i+1, j+1
		case i < len(a) && (j == len(b) || lcs[i+1][j] >= lcs[i][j+1]):
			ops = append(ops, op{'-', a[i], j + 1})
			i++
		default:
			ops = append(ops, op{'+', b[j], j + 1})
			j++
		}
	}
	return ops
}
