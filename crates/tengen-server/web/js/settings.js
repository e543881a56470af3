// This browser's settings: sounds, the spoken count, notifications, the tab's title.
import { $ } from './dom.js';
import { render } from './store.js';

export const settings = Object.assign({ sound: true, speak: false, notify: false, title: true },
  JSON.parse(localStorage.getItem('tengen-settings') || '{}'));

function save() {
  localStorage.setItem('tengen-settings', JSON.stringify(settings));
}

export function init() {
  for (const key of ['sound', 'speak', 'notify', 'title']) {
    const box = $(`#set-${key}`);
    box.checked = settings[key];
    box.addEventListener('change', async () => {
      settings[key] = box.checked;
      if (key === 'notify' && box.checked && 'Notification' in window && Notification.permission !== 'granted') {
        settings.notify = (await Notification.requestPermission()) === 'granted';
        box.checked = settings.notify;
      }
      save();
      render();
    });
  }
}
