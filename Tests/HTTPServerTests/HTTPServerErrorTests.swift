import HTTPServer
import Testing

@Suite struct HTTPServerErrorTests {
    @Test func namesTheAddressAndSaysWhatToDo() {
        #expect(
            HTTPServerError.permissionDenied(host: "0.0.0.0", port: 80).errorDescription
                == "Cannot listen on 0.0.0.0:80: permission denied. Ports below 1024 need privileges; "
                + "choose a port of 1024 or above."
        )
        #expect(
            HTTPServerError.addressInUse(host: "::1", port: 8080).errorDescription
                == "Cannot listen on [::1]:8080: the address is already in use. Stop the other server or "
                + "choose another port."
        )
        #expect(HTTPServerError.invalidHost("relay.example").errorDescription?.contains("'relay.example'") == true)
    }
}
