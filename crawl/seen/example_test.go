package seen_test

import (
	"bytes"
	"fmt"

	"github.com/trawler/trawler/crawl/seen"
)

func Example() {
	s := seen.New(seen.Config{Expected: 10_000})
	for _, fp := range []uint64{0x9e3779b97f4a7c15, 0xbf58476d1ce4e5b9, 0x9e3779b97f4a7c15} {
		fmt.Println(fp, s.Add(fp))
	}

	var saved bytes.Buffer
	if _, err := s.WriteTo(&saved); err != nil {
		fmt.Println(err)
	}
	resumed := seen.New(seen.Config{})
	if _, err := resumed.ReadFrom(&saved); err != nil {
		fmt.Println(err)
	}
	fmt.Println(resumed.Len(), resumed.Contains(0xbf58476d1ce4e5b9))
	// Output:
	// 11400714819323198485 true
	// 13787848793156543929 true
	// 11400714819323198485 false
	// 2 true
}
