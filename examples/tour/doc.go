// Command tour prints kitchensync's guided tour in the terminal: for each
// chapter, its prose, its code and what the code printed when it ran just
// now.
//
//	go run ./examples/tour            # every chapter, in order
//	go run ./examples/tour -list      # the table of contents
//	go run ./examples/tour -step 7    # one chapter
//	go run ./examples/tour -step 7 -code=false
//
// The chapters are the functions of package
// [github.com/kitchensync/kitchensync/examples/tour/chapters]; the root
// package's Examples run the same functions and pin their output, so what
// this program prints is what go test checks. To browse the same tour as
// a web page, with the Examples in order: go doc -http (Go 1.25 and later).
package main
