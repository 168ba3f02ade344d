// Package chapters is the guided tour of kitchensync, one function per
// chapter: the function plays the chapter and writes what happens to an
// io.Writer, and its doc comment is the chapter's prose.
//
// The same functions serve three readers, so that prose, code and output
// cannot drift apart:
//
//   - go run ./examples/tour prints each chapter's prose, its code (read
//     from this package's own source, embedded) and its real output;
//   - the root package's Examples, Example_step01_anOrderIsAnObject and
//     on, call them and pin their output with // Output:, so go test
//     checks every chapter and go doc -http shows them in order;
//   - go doc prints any one of them: go doc ./examples/tour/chapters Watch.
//
// The first part walks from "an order is an object" to "your own
// controller"; the second, [PartWrong], takes the points where the two
// stories kitchensync is built from (the restaurant, 餐厅后厨, and the
// cake shop, 蛋糕店) say something that the real machinery does not do,
// and shows what it does instead.
//
// A chapter panics if the library fails where the chapter expects it to
// work: the chapters are examples, and a panic there is a bug to report.
package chapters
