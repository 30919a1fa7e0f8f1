internal import CCurl

/// `curl_global_init`, run once per process before the first handle is made (Swift runs a global's
/// initializer exactly once, thread-safely); `nil` when it succeeded, else the failure.
let curlGlobalFailure: CurlError? = {
    do throws(CurlError) {
        try CurlError.check(ccurl_global_init(), context: "curl_global_init")
        return nil
    } catch {
        return error
    }
}()
