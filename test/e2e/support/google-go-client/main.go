// What a Go program written for Google's Elevation API does, with only the base URL changed: it asks for points
// with googlemaps.github.io/maps (Google's Go client) and prints one JSON line per request: the results, or the
// error the client returned. Its ElevationResult.Elevation is a float64, so a JSON null would read as 0 m.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"googlemaps.github.io/maps"
)

type line struct {
	Results []maps.ElevationResult `json:"results,omitempty"`
	Error   string                 `json:"error,omitempty"`
}

func main() {
	client, err := maps.NewClient(maps.WithAPIKey("AIzaLocalKeyNotChecked"), maps.WithBaseURL(os.Args[1]))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	requests := [][]maps.LatLng{
		{{Lat: 48.742275, Lng: 9.101177}, {Lat: 48.8, Lng: 9.2}},
		{{Lat: 48.742275, Lng: 9.101177}, {Lat: 10, Lng: 10}},
	}
	for _, locations := range requests {
		results, err := client.Elevation(context.Background(), &maps.ElevationRequest{Locations: locations})
		out := line{Results: results}
		if err != nil {
			out.Error = err.Error()
		}
		text, _ := json.Marshal(out)
		fmt.Println(string(text))
	}
}
