// Sending an uploaded attachment as a message of the room: the upload itself runs in the
// composer (it needs progress and cancel, services/upload.ts); once the server holds the file,
// this sends `/app/private-message` with its attachmentId. The message comes back on the
// room's topic like any other.
import { createAction } from '@reduxjs/toolkit';
import type { SagaIterator } from 'redux-saga';
import { call, takeEvery } from 'redux-saga/effects';
import { app } from '../../../../common/destinations';
import { service } from '../../app/sagaContext';
import { newClientMsgId } from './clientMsgId';

export const attachmentUploaded = createAction<{ chatRoomId: number; attachmentId: number; content: string }>('room/attachmentUploaded');

function* sendAttachment({ payload }: ReturnType<typeof attachmentUploaded>): SagaIterator {
  const stomp = yield* service('stomp');
  const body = { chatRoomId: payload.chatRoomId, content: payload.content, attachmentId: payload.attachmentId, clientMsgId: newClientMsgId() };
  yield call([stomp, stomp.publish], app.privateMessage, body);
}

export function* attachmentSaga(): SagaIterator {
  yield takeEvery(attachmentUploaded.type, sendAttachment);
}
