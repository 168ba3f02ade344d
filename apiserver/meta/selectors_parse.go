package meta

import (
	"fmt"
	"strings"
)

// The label selector parser: a lexer that cuts the selector into tokens,
// then a recursive-descent parser over them, following the grammar and the
// error wording of Kubernetes' labels.Parse.

type labelTokenKind int

const (
	tokEnd labelTokenKind = iota
	tokIdent
	tokIn         // "in"
	tokNotIn      // "notin"
	tokBang       // "!"
	tokNotEquals  // "!="
	tokEquals     // "="
	tokDoubleEq   // "=="
	tokGreater    // ">"
	tokLess       // "<"
	tokOpenParen  // "("
	tokCloseParen // ")"
	tokComma      // ","
)

type labelToken struct {
	kind labelTokenKind
	lit  string
}

var labelSymbols = map[string]labelTokenKind{
	"!": tokBang, "!=": tokNotEquals, "=": tokEquals, "==": tokDoubleEq,
	">": tokGreater, "<": tokLess, "(": tokOpenParen, ")": tokCloseParen, ",": tokComma,
}

func isLabelSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

func isLabelSymbol(c byte) bool { return strings.IndexByte("=!(),><", c) >= 0 }

// lexLabels cuts s into tokens, always ending with tokEnd. Symbols take
// the longest match ("!=" before "!"); anything else up to a symbol or a
// space is an identifier, or the keyword in/notin.
func lexLabels(s string) []labelToken {
	var toks []labelToken
	for i := 0; i < len(s); {
		switch c := s[i]; {
		case isLabelSpace(c):
			i++
		case isLabelSymbol(c):
			n := 1
			if i+1 < len(s) {
				if _, ok := labelSymbols[s[i:i+2]]; ok {
					n = 2
				}
			}
			toks = append(toks, labelToken{labelSymbols[s[i:i+n]], s[i : i+n]})
			i += n
		default:
			j := i
			for j < len(s) && !isLabelSpace(s[j]) && !isLabelSymbol(s[j]) {
				j++
			}
			kind := tokIdent
			switch s[i:j] {
			case "in":
				kind = tokIn
			case "notin":
				kind = tokNotIn
			}
			toks = append(toks, labelToken{kind, s[i:j]})
			i = j
		}
	}
	return append(toks, labelToken{kind: tokEnd})
}

type labelParser struct {
	toks []labelToken
	pos  int
}

// peek returns the next token. Where a value or key may stand, the
// keywords in and notin are plain identifiers ("x in (in)" is legal).
func (p *labelParser) peek(asValue bool) labelToken {
	t := p.toks[p.pos]
	if asValue && (t.kind == tokIn || t.kind == tokNotIn) {
		t.kind = tokIdent
	}
	return t
}

func (p *labelParser) next(asValue bool) labelToken {
	t := p.peek(asValue)
	if t.kind != tokEnd {
		p.pos++
	}
	return t
}

func (p *labelParser) parse() ([]LabelRequirement, error) {
	var reqs []LabelRequirement
	for {
		switch t := p.peek(true); t.kind {
		case tokEnd:
			return reqs, nil
		case tokIdent, tokBang:
		default:
			return nil, fmt.Errorf("found '%s', expected: !, identifier, or 'end of string'", t.lit)
		}
		r, err := p.parseRequirement()
		if err != nil {
			return nil, fmt.Errorf("unable to parse requirement: %w", err)
		}
		reqs = append(reqs, r)
		switch t := p.next(true); t.kind {
		case tokEnd:
			return reqs, nil
		case tokComma:
			if t2 := p.peek(true); t2.kind != tokIdent && t2.kind != tokBang {
				return nil, fmt.Errorf("found '%s', expected: identifier after ','", t2.lit)
			}
		default:
			return nil, fmt.Errorf("found '%s', expected: ',' or 'end of string'", t.lit)
		}
	}
}

func (p *labelParser) parseRequirement() (LabelRequirement, error) {
	t := p.next(true)
	negated := t.kind == tokBang
	if negated {
		t = p.next(true)
	}
	if t.kind != tokIdent {
		return LabelRequirement{}, fmt.Errorf("found '%s', expected: identifier", t.lit)
	}
	key := t.lit
	if msgs := IsLabelKey(key); len(msgs) > 0 {
		var errs FieldErrors
		errs.Invalid("key", key, strings.Join(msgs, "; "))
		return LabelRequirement{}, fmt.Errorf("%s", aggregateCauses(errs))
	}
	if negated {
		return LabelRequirement{Key: key, Operator: SelectorOpDoesNotExist}, nil
	}
	if k := p.peek(true).kind; k == tokEnd || k == tokComma {
		return LabelRequirement{Key: key, Operator: SelectorOpExists}, nil
	}
	op, err := p.parseOperator()
	if err != nil {
		return LabelRequirement{}, err
	}
	var values []string
	if op == SelectorOpIn || op == SelectorOpNotIn {
		values, err = p.parseValueSet()
	} else {
		values, err = p.parseExactValue()
	}
	if err != nil {
		return LabelRequirement{}, err
	}
	return newLabelRequirement(key, op, values)
}

func (p *labelParser) parseOperator() (SelectorOperator, error) {
	t := p.next(false)
	ops := map[labelTokenKind]SelectorOperator{
		tokIn: SelectorOpIn, tokNotIn: SelectorOpNotIn, tokEquals: SelectorOpEquals,
		tokDoubleEq: SelectorOpDoubleEquals, tokNotEquals: SelectorOpNotEquals,
		tokGreater: SelectorOpGreaterThan, tokLess: SelectorOpLessThan,
	}
	if op, ok := ops[t.kind]; ok {
		return op, nil
	}
	return "", fmt.Errorf("found '%s', expected: in, notin, =, ==, !=, gt, lt", t.lit)
}

// parseValueSet reads "(a,b,c)". Empty slots are empty-string values, so
// "()" and "(a,)" both contain "".
func (p *labelParser) parseValueSet() ([]string, error) {
	if t := p.next(true); t.kind != tokOpenParen {
		return nil, fmt.Errorf("found '%s' expected: '('", t.lit)
	}
	var values []string
	expectValue := true // at the start, or just after a comma
	for {
		switch t := p.next(true); t.kind {
		case tokIdent:
			if !expectValue {
				return nil, fmt.Errorf("found '%s', expected: ',' or ')'", t.lit)
			}
			values = append(values, t.lit)
			expectValue = false
		case tokComma:
			if expectValue {
				values = append(values, "")
			}
			expectValue = true
		case tokCloseParen:
			if expectValue {
				values = append(values, "")
			}
			return values, nil
		default:
			if !expectValue {
				return nil, fmt.Errorf("found '%s', expected: ',' or ')'", t.lit)
			}
			return nil, fmt.Errorf("found '%s', expected: ',', ')' or identifier", t.lit)
		}
	}
}

// parseExactValue reads the one value after =, ==, !=, > or <; nothing
// before a comma or the end is the empty value.
func (p *labelParser) parseExactValue() ([]string, error) {
	switch t := p.peek(true); t.kind {
	case tokEnd, tokComma:
		return []string{""}, nil
	case tokIdent:
		p.next(true)
		return []string{t.lit}, nil
	default:
		return nil, fmt.Errorf("found '%s', expected: identifier", t.lit)
	}
}
