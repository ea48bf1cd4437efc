import Testing

@testable import Receivers

/// The token request's `application/x-www-form-urlencoded` body.
@Suite struct FormEncodingTests {
    @Test func unreservedCharactersPassAndEveryOtherByteIsEscaped() {
        #expect(
            OAuthTokenProvider.formEncoded([("grant_type", "client_credentials")]) == "grant_type=client_credentials")
        #expect(
            OAuthTokenProvider.formEncoded([("client_id", "a-b.c_d~e"), ("client_secret", "p@ss word/+&=%")])
                == "client_id=a-b.c_d~e&client_secret=p%40ss%20word%2F%2B%26%3D%25")
        #expect(OAuthTokenProvider.formEncoded([("name", "Zürich\n")]) == "name=Z%C3%BCrich%0A")
        #expect(OAuthTokenProvider.formEncoded([]) == "")
    }
}
