import Foundation
import Tributary

/// The work of a job, off the coordinator actor: loading data, and decoding and processing.
extension ImagePipeline.Coordinator {
    /// The original data, from the disk cache or, in a download slot, from the data loader;
    /// what is downloaded is stored in the disk cache.
    nonisolated func loadData(
        key: JobKey,
        job id: Int,
        request: ImageRequest,
        sinks: JobSinks
    ) async
        -> Result<JobValue, ImagePipeline.Error>
    {
        let failure = { (reason: ImagePipeline.Error.Reason) in
            Result<JobValue, ImagePipeline.Error>.failure(
                ImagePipeline.Error(stage: .loading, url: request.url, reason: reason)
            )
        }
        if key.cachePolicy != .reloadIgnoringCache, let dataCache = configuration.dataCache,
            let data = await Self.diskQueue.run({ dataCache.cachedData(for: key.dataKey) })
        {
            return .success(.data(data, .diskCache))
        }
        if key.cachePolicy == .returnCacheDataDontLoad { return failure(.notCached) }
        do {
            try await acquire(.download, key: key, job: id)
        } catch {
            return failure(.cancelled)
        }
        let loaded: Result<Data, any Swift.Error>
        do {
            loaded = .success(
                try await configuration.dataLoader.loadData(for: request) { received, expected in
                    sinks.progress(ImageProgress(completed: received, total: expected))
                }
            )
        } catch {
            loaded = .failure(error)
        }
        await release(.download)
        switch loaded {
        case .success(let data) where data.isEmpty:
            return failure(.emptyData)
        case .success(let data):
            if let dataCache = configuration.dataCache {
                await Self.diskQueue.run { dataCache.storeData(data, for: key.dataKey) }
            }
            return .success(.data(data, .network))
        case .failure(let error):
            return failure(Task.isCancelled ? .cancelled : .loadingFailed(error))
        }
    }

    /// Decodes data, or applies the last processor to an image, in a decode slot.
    nonisolated func decode(
        _ input: JobValue,
        processors: [any ImageProcessing],
        key: JobKey,
        job id: Int,
        url: URL
    ) async -> Result<JobValue, ImagePipeline.Error> {
        do {
            try await acquire(.decode, key: key, job: id)
        } catch {
            return .failure(ImagePipeline.Error(stage: .decoding, url: url, reason: .cancelled))
        }
        // Decoding a large image keeps a thread busy for tens of milliseconds: that work runs
        // on threads of its own, never on the cooperative pool that every task shares.
        let decoder = configuration.decoder
        let result = await Self.decodingQueue.run {
            Self.decode(input, processors: processors, decoder: decoder, url: url)
        }
        await release(.decode)
        // Data that is no image, or a broken one, is not kept to be served again: a captive
        // portal's page would otherwise fail every later load from the disk cache, without
        // the server being asked again.
        if case .data = input, case .failure(let error) = result,
            case .decodingFailed(let reason) = error.reason,
            reason.isBrokenData
        {
            if let dataCache = configuration.dataCache {
                await Self.diskQueue.run { dataCache.removeData(for: key.dataKey) }
            }
        }
        return result
    }

    /// Where the disk cache is read and written: the cooperative pool's few threads are shared
    /// by every task, and a disk can keep one waiting for milliseconds.
    private static let diskQueue = DispatchQueue(
        label: "TributaryImages.disk",
        qos: .userInitiated,
        attributes: .concurrent
    )

    /// Where decoding and processing run; the decode slots bound how many at once.
    private static let decodingQueue = DispatchQueue(
        label: "TributaryImages.decoding",
        qos: .userInitiated,
        attributes: .concurrent
    )

    /// Decodes data (scaled when a single resize follows) or applies the last processor.
    private static func decode(
        _ input: JobValue,
        processors: [any ImageProcessing],
        decoder: any ImageDecoding,
        url: URL
    ) -> Result<JobValue, ImagePipeline.Error> {
        var image: Bitmap
        var pending: ArraySlice<any ImageProcessing>
        let source: ImageResponse.Source
        let original: ImageHeader?
        switch input {
        case .data(let data, let from):
            source = from
            pending = processors[...]
            original = try? ImageHeader(data: data)
            var minimumSize: PixelSize?
            if let first = processors.first, let header = original {
                minimumSize = first.minimumInputSize(for: header.uprightSize)
            }
            do throws(ImageDecodingError) {
                image = try decoder.decode(data, minimumSize: minimumSize)
            } catch {
                return .failure(
                    ImagePipeline.Error(stage: .decoding, url: url, reason: .decodingFailed(error))
                )
            }
        case .image(let bitmap, let from, let header):
            source = from
            original = header
            image = bitmap
            pending = processors.suffix(1)
        }
        for processor in pending {
            do {
                image = try processor.process(image)
            } catch {
                return .failure(
                    ImagePipeline.Error(
                        stage: .processing,
                        url: url,
                        reason: .processingFailed(processor: processor.identifier, error)
                    )
                )
            }
        }
        return .success(.image(image, source, original))
    }
}
