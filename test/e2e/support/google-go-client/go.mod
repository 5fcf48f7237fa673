module google-go-client

go 1.22

require googlemaps.github.io/maps v1.7.0

require (
	github.com/google/uuid v1.1.1 // indirect
	go.opencensus.io v0.22.3 // indirect
	golang.org/x/time v0.0.0-20200416051211-89c76fbcd5d1 // indirect
)
